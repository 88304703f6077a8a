"""The programs: the Discord bot (``python -m dingir``), the terminal
(``python -m dingir.local``) and the migration (``python -m dingir.migrate``); each builds
the service with the catalogue of :mod:`host.registry`."""
