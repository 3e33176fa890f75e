#!/usr/bin/env python3
"""Asks a Kafka broker for its metadata once; exit status 0 when it answers with itself listed.

Usage: broker_probe.py HOST:PORT

A broker in KRaft mode opens its listener only once it has joined the cluster, and lists itself
in a metadata response once it is unfenced, so an answer with at least one broker means clients
can use it. Plain sockets keep this free of client libraries; Metadata v4 is the oldest version
Kafka 4 still serves.
"""
import socket
import struct
import sys

METADATA_KEY = 3
METADATA_VERSION = 4
CORRELATION_ID = 7
CLIENT_ID = b"sluice-broker-probe"


def request() -> bytes:
    header = struct.pack(">hhih", METADATA_KEY, METADATA_VERSION, CORRELATION_ID, len(CLIENT_ID))
    # topics = null (all topics; none exist or matter here), allow_auto_topic_creation = false.
    body = struct.pack(">ib", -1, 0)
    payload = header + CLIENT_ID + body
    return struct.pack(">i", len(payload)) + payload


def read_exactly(connection: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the broker closed the connection")
        data += chunk
    return data


def broker_count(address: str) -> int:
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=2) as connection:
        connection.settimeout(2)
        connection.sendall(request())
        (size,) = struct.unpack(">i", read_exactly(connection, 4))
        response = read_exactly(connection, size)
    # correlation_id, throttle_time_ms, then the array of brokers.
    correlation_id, _, brokers = struct.unpack_from(">iii", response)
    if correlation_id != CORRELATION_ID:
        raise ConnectionError(f"unexpected correlation id {correlation_id}")
    return brokers


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        return 0 if broker_count(sys.argv[1]) > 0 else 1
    except (OSError, struct.error):
        return 1


if __name__ == "__main__":
    sys.exit(main())
