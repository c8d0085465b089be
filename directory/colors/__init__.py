"""Brand colours: the colours a logo file uses (extraction.py, svg_colors.py for SVG),
colour values and blends (color_values.py), and how a logo reads on a background
(contrast.py, WCAG contrast); the endpoint GET /companies/{slug}/colors (views.py,
serializers.py).
"""
