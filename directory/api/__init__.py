"""The public JSON API of the catalogue under /v1/public: its views (views.py), their input
and output serializers (serializers.py) and URLs (urls.py). Wiring only: the work is in
the rooms below.
"""
