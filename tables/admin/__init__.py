"""The pit console for tables: the floor dashboard, table and round pages with buttons that call
the same services as the API (``tables.services``), and versioned rules with their RTP.

Rows are written by services only, so every page is read-only; changes are the buttons (and
the "Add table" page, which calls ``table_create``). Pages read through selectors
(``tables.console_selectors``, ``casino.console.selectors`` for the floor), never the ORM.

Modules: ``tables`` (sites, tables, the floor), ``table_actions`` (the table buttons),
``rounds`` (rounds and their void buttons), ``versions`` (rule and payout versions),
``records`` (shoes, void requests, change logs, rotation), ``roster`` (shifts and roster).
"""

from tables.admin import records, roster, rounds, tables, versions  # noqa: F401 (registers)
