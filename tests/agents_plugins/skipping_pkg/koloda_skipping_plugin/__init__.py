"""An agent plugin whose import raises what pytest.skip raises: a BaseException."""


class Skipped(BaseException):
    """Like pytest's outcome exceptions, not an Exception."""


raise Skipped("this plugin is not for this machine")
