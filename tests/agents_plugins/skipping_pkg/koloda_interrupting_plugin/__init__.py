"""An agent plugin whose import raises KeyboardInterrupt itself, with no Ctrl-C pressed."""

raise KeyboardInterrupt
