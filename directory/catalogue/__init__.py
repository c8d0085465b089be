"""The catalogue itself: sectors, companies, logos, variants, files (assets) and domains
as Django models (models.py), the reads the API, the website and the admin
share (selectors.py), the serializer shapes of companies and logos (shapes.py), and
the read endpoints of a company, a logo and the domains (views.py, serializers.py), with
what every endpoint of the directory shares (its tag, scope and path parameters).
The bottom room: it imports no other part of the directory.
"""
