"""The website's catalogue pages (pages.py): home and search, a company, a logo and its
download, the Logo Link's example page.
"""
