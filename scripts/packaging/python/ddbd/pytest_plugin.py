"""pytest plugin (loaded when the ddbd package is installed):

- `ddbd_endpoint`: the endpoint of one ddbd shared by the whole test run (started on first use,
  stopped at the end); its flags from the `ddbd_args` ini option or `--ddbd-arg`;
- `ddbd_server`: that Server itself (`.endpoint`, `.port`);
- `ddbd_factory`: starts servers of the test's own, `ddbd_factory(seed="fixtures/", args=[...])`
  (ddbd.start's options), each stopped when the test ends."""
import shlex

import pytest

import ddbd


def pytest_addoption(parser):
    group = parser.getgroup("ddbd")
    group.addoption("--ddbd-arg", action="append", default=[], dest="ddbd_args",
                    help="a flag for the shared ddbd (repeatable), e.g. --ddbd-arg=--seed=fixtures")
    parser.addini("ddbd_args", "flags for the shared ddbd server", type="args", default=[])


@pytest.fixture(scope="session")
def ddbd_server(pytestconfig):
    args = list(pytestconfig.getini("ddbd_args"))
    for given in pytestconfig.getoption("ddbd_args"):
        args += shlex.split(given)
    server = ddbd.start(args=args)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def ddbd_endpoint(ddbd_server):
    return ddbd_server.endpoint


@pytest.fixture
def ddbd_factory():
    servers = []

    def factory(**options):
        server = ddbd.start(**options)
        servers.append(server)
        return server

    yield factory
    for server in servers:
        server.stop()
