"""Results: API responses as tool results a model can read, within a token budget.

JSON, text, XML, images and sequences (``responses``), shortened to the budget (``shrink``), with
field selection (``select``), next-page hints (``pages``) and the API's own error words (``problems``).
"""
