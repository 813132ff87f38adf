"""The preview: a static site that shows each quiz as a student sees it, lets its author try it
(answers scored by the content's credits, with the feedback that would show), and tells, for
each question, what every platform keeps, changes or drops.

Like a writer it does no I/O: `site.build_site` turns loaded quizzes into a dict of file names
and bytes; the command writes them. Texts go through `lmsexport.text`, the rendering every
export uses, so nothing in the content can run as a script; a Content-Security-Policy admits
only the page's own script and style besides.
"""
