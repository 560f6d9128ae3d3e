"""Listener settings read from the environment."""

DEFAULT_PORT = 8080


def parse_port(text: str) -> int:
    """Return the TCP port that text names, 1 to 65535.

    Port 0 asks the kernel for any free port, which a service that others
    must find cannot use, so it is refused like any other out-of-range value.
    """
    port = int(text.strip())
    if port < 1 or port > 65535:
        raise ValueError(f"port {port} is outside 1..65535")
    return port


def listen_address(host: str, port_text: str | None) -> str:
    """Return host:port, using DEFAULT_PORT when no port is configured."""
    port = DEFAULT_PORT if port_text is None else parse_port(port_text)
    return f"{host}:{port}"
