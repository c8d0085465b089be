"""A logo file's bytes: what format they are, judged by the bytes only (formats.py), and
the preview PNG drawn from them (previews.py).
"""
