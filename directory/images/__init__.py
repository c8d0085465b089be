"""The Logo Link, GET /v1/public/img/{identifier}: which logo an address draws, its cache
and storage (logolink.py), how its pictures are drawn (renditions.py), and its endpoint
with the previews' URLs (views.py, serializers.py).
"""
