#!/usr/bin/env python3
"""Writes a seeded GPX or NMEA track of N fixes for measuring `mapsketch gps` at scale.

    python3 Benchmarks/gps-scale-track.py gpx 2000000 /tmp/big.gpx     # 210 MB
    python3 Benchmarks/gps-scale-track.py nmea 2000000 /tmp/big.nmea   # 288 MB (GGA + RMC per fix)

A noisy back-and-forth walk with elevation and a time per fix, written as a GPS logger writes
it (the shapes of the benchmarks' TraceData.gpxDocument and nmeaLog). Same arguments, same bytes.
"""
import random
import sys

kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = random.Random(42)


def track():
    lat, lon, ele = 46.05, 14.50, 300.0
    for i in range(n):
        k = i % 20000
        d = k if k < 10000 else 20000 - k
        yield (lat + d * 1e-5 + rng.uniform(-1e-5, 1e-5), lon + d * 1.3e-5 + rng.uniform(-1e-5, 1e-5), ele + (d % 97) * 0.5, i)


def angle(v, degree_digits):
    a = abs(v)
    d = int(a)
    return "%0*d%08.5f" % (degree_digits, d, (a - d) * 60)


def sentence(body):
    s = 0
    for c in body.encode():
        s ^= c
    return "$%s*%02X\r\n" % (body, s)


with open(path, "w", newline="") as f:
    if kind == "gpx":
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="gen" '
                'xmlns="http://www.topografix.com/GPX/1/1">\n  <trk><name>scale</name><trkseg>\n')
    buf = []
    for lat, lon, ele, t in track():
        day, s = 1 + t // 86400, t % 86400
        if kind == "gpx":
            buf.append('      <trkpt lat="%.7f" lon="%.7f"><ele>%.1f</ele><time>2024-05-%02dT%02d:%02d:%02dZ</time></trkpt>\n'
                       % (lat, lon, ele, day, s // 3600, s // 60 % 60, s % 60))
        else:
            hms = "%02d%02d%02d.00" % (s // 3600, s // 60 % 60, s % 60)
            la, lo = angle(lat, 2), angle(lon, 3)
            buf.append(sentence("GPGGA,%s,%s,N,%s,E,1,09,0.9,%.1f,M,47.0,M,," % (hms, la, lo, ele)))
            buf.append(sentence("GPRMC,%s,A,%s,N,%s,E,2.5,87.3,%02d0524,,,A" % (hms, la, lo, day)))
        if len(buf) > 10000:
            f.write("".join(buf))
            buf = []
    f.write("".join(buf))
    if kind == "gpx":
        f.write("    </trkseg></trk>\n</gpx>\n")
