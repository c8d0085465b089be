"""Changing the catalogue: the write services the import, the admin and the proposals'
review go through, which keep previews, colours, the Logo Link and the domain list in
step (services.py); the staff admin (admin.py) and its forms (forms.py, with the
website's download form).
"""
