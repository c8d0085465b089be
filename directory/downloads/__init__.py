"""Downloads: temporary download links, the download quota per account or address, and
pruning old downloads (services.py); the record of each link handed out (models.py);
the endpoint POST /logos/{id}/download and the signed link it gives (views.py,
serializers.py).
"""
