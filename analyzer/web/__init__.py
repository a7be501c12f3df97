"""``belote serve``: the analyser as a local web page (the optional ``web`` extra: Starlette, uvicorn).

Like the command line, it sits on top of the pipeline: it asks the questions
(``analyzer.questions``) and shows their answers with the same renderers
(``analyzer.output.take_table``). ``app`` is the application, ``work`` the questions a page
asks (checked, then run as jobs), ``jobs`` the bounded table of running questions, ``serve``
the server's start, ``static`` the pages.
"""
