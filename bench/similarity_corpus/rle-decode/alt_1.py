def rle_decode(values, counts):
    return values.repeat(counts)
