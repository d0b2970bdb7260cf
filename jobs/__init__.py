"""Jobs that run the whole product end to end (``procura demo run``): the top layer, beside ``api``.

A job sequences the commands of the layers below (generate, ingest, validate, build the marts, answer); nothing
below imports it.
"""
