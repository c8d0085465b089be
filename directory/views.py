def serve_preview(request, name):
    raise NotImplementedError
