"""One `koloda serve --http` for the HTTP tests, on a free port, with small limits."""

import pytest

from koloda.serve.soak import start_server


@pytest.fixture(scope="session")
def http_url():
    process, url = start_server(workers=2, extra=("--max-ms", "2000", "--max-sessions", "200",
                                                  "--max-request-bytes", "20000"))
    yield url
    process.terminate()
    process.wait(timeout=30)
