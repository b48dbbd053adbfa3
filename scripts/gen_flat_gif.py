import sys, struct
# A gif of one colour, LZW-coded as giflib codes it: scripts/gen_flat_gif.py W H OUT (7000 x 7000 is 33 KB).
def gif(w, h):
    out = bytearray(b"GIF89a" + struct.pack("<HH", w, h) + bytes([0x80, 0, 0]) + bytes([255,255,255, 0,0,0]))
    out += b"\x2c" + struct.pack("<HHHH", 0, 0, w, h) + b"\x00" + b"\x02"
    data = bytearray(); acc = 0; nacc = 0
    bits = 3; maxc = 8; running = 6
    def emit(code):
        nonlocal acc, nacc, bits, maxc
        acc |= code << nacc; nacc += bits
        while nacc >= 8:
            data.append(acc & 0xFF); acc >>= 8; nacc -= 8
        if running >= maxc and code <= 4095 and bits < 12:
            bits += 1; maxc = 1 << bits
    emit(4)
    remaining = w * h; maxrun = 1
    while remaining > 0:
        L = min(maxrun, remaining); remaining -= L
        emit(0 if L == 1 else 6 + L - 2)
        if remaining > 0:
            if running >= 4095:
                emit(4); running = 6; bits = 3; maxc = 8; maxrun = 1
            else:
                running += 1; maxrun = L + 1
    emit(5)
    if nacc > 0: data.append(acc & 0xFF)
    for i in range(0, len(data), 255):
        chunk = data[i:i+255]; out.append(len(chunk)); out += chunk
    out += b"\x00\x3b"
    return bytes(out)
if __name__ == "__main__":
    w, h, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    open(path, "wb").write(gif(w, h))
