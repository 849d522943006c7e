"""The protocol's transports: stdio (`stdio`), HTTP with the browser page (`http`, `web/`),
and the load test that drives a running server (`soak`, `hostile`)."""
