"""``belote serve``: the analyser as a local web page (the optional ``web`` extra: Starlette, uvicorn).

Like the command line, it sits on top of the pipeline: it asks the questions
(``analyzer.questions``) and shows their answers with the same renderers
(``analyzer.output.take_table``) and in the players' words, English or Dutch
(``analyzer.output.words``). ``app`` is the application, ``work`` the questions a page asks
(checked, then run as jobs) and a deal being entered by hand, ``jobs`` the bounded table of
running questions, ``serve`` the server's start, ``static`` the pages, which only render what
the server sends them.
"""
