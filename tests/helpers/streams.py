"""Reading a streamed response in tests: the table stream is an async view, whose body the
test client hands back as an async iterator."""

from asgiref.sync import async_to_sync


def streamed_content(response) -> bytes:
    """The whole body of a (sync or async) streaming response, or of a plain one."""
    if not getattr(response, "streaming", False):
        return response.content
    if not response.is_async:
        return b"".join(response.streaming_content)

    async def read() -> bytes:
        return b"".join([part async for part in response.streaming_content])

    return async_to_sync(read)()
