"""The static HTML site of JSON reports (``oracle report html``, :mod:`oracle.reports.html.site`): one
report's page, or a matrix of several implementations by rule and card with a page per report.
``docs/html.md`` describes it."""
