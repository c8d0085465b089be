def pytest_configure(config):
    config.addinivalue_line(
        "markers", "fault: a backing service fails under the test (select with -m fault)"
    )
