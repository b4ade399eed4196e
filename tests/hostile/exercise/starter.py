def transform(x):
    raise NotImplementedError
