"""Reading the weighted lists of HTTP request headers (Accept-Encoding, Accept-Language)."""


def weights(header: str) -> dict[str, float]:
    """Each value of a header such as "gzip, br;q=0.5" in lower case, with its q (1 when
    none is given, 0 when it is not a number), in the header's order."""
    found: dict[str, float] = {}
    for part in header.split(","):
        value, *parameters = (piece.strip() for piece in part.split(";"))
        weight = 1.0
        for parameter in parameters:
            key, _, number = parameter.partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(number)
                except ValueError:
                    weight = 0.0
        if value:
            found[value.lower()] = weight
    return found


def weighted_values(header: str) -> list[str]:
    """The values the header accepts (q above 0), the most wanted first; ties keep the
    header's order."""
    accepted = [(value, weight) for value, weight in weights(header).items() if weight > 0]
    return [value for value, _ in sorted(accepted, key=lambda item: -item[1])]
