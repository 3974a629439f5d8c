"""Root conftest: loads the claims plugin so that ``pytest theory`` collects one item
per catalogued claim and the ``--paperchecks-seed``/``--mc-scale``/``--backend`` options
exist for every test directory."""
pytest_plugins = ["theory.pytest_plugin"]
