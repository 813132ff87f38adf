"""Writers: pure functions from a `Quiz` to the bytes of one export file.

Each format is one module (or a package when it grows) exposing
`render(quiz, options) -> Export`. Nothing here touches the file system.
"""
