"""The catalogue itself: sectors, companies, logos, variants, files (assets) and domains
as Django models (models.py), the reads the API, the website and the admin
share (selectors.py), and the serializer shapes of companies and logos (shapes.py).
The bottom room: it imports no other part of the directory.
"""
