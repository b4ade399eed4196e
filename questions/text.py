"""Text as Hotpath stores it: LF line endings. Browsers send a textarea's content
with CRLF and a bank file may have been saved on Windows; code, drafts and bank
files are stored and hashed with LF only, so the same text is the same bytes."""


def unix_newlines(text):
    return text.replace("\r\n", "\n")
