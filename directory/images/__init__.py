"""The Logo Link, GET /v1/public/img/{identifier}: which logo an address draws, its cache
and storage (logolink.py), and how its pictures are drawn (renditions.py).
"""
