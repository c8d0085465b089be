"""What the website's pages share, whichever app serves them: the page for a form the
CSRF check refused (`csrf.py`), the Content-Security-Policy header (`csp.py`) and the
choice of the visitor's language (`i18n.py`). It imports no app (import-linter,
pyproject.toml); the pages themselves live in each app's `pages.py`.
"""
