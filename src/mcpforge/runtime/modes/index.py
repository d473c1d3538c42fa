"""The search index of an API's operations: BM25F over what the document says of each, and the request's intent.

Each operation is a document of fields (:mod:`.documents`: what its method and path shape do in
everyday words, its name, its summary, the resource its path ends with, the rest of its path, its
tags, its description, its arguments' names), each weighted (:class:`Weights`). A field's term
frequencies are normalised by the field's length, weighted, summed, saturated (BM25's ``k1``) and
multiplied by the term's rarity (IDF) once, when the index is built: a request then costs one
lookup per term (:meth:`SearchIndex.search`, milliseconds for 11,000 operations). Where a term names
the operation's resource, its rarity among the resources counts too (``Weights.named_rarity``): a
word every operation takes as an argument ("doctor") still finds the one resource it names.

A request's terms come from :func:`.asks.query_terms` (its words and the everyday lexicon's). An
operation whose method is the one the request's verb asks for (:func:`.asks.intent`; for an
action named in the path, the method its verb means: :func:`.documents.rpc_method`) is raised, as is one
whose path is short (the general operation before its variants), and, when the request names
someone (:func:`.asks.names_someone`), one on a person's things (``/users/{id}/...``), and when it
names a repository ("acme/widgets", "the api repo"), one on a repository's (``/repos/{owner}/{repo}/...``);
and the results are spread over different actions: an API that repeats one tree under several roots (``/me``,
``/users/{id}``, ``/groups/{id}``) would otherwise fill the first ten with one action's copies.
The weights were set on mcpforge's own task sets (``bench/search``) with ``bench/bench_search.py``.
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..contract import ToolEntry
from .asks import query_terms
from .documents import PARAMETER, analyse_api, bare_verb, entry_texts, named_verb, rpc_method, trimmed
from .intents import READ
from .people import as_owners, asks_of_self, names_someone, owning_roles
from .properties import Properties
from .records import ASKERS, PEOPLE, Records, with_record
from .sentences import intent
from .words import STOPWORDS, stem, terms, words

__all__ = ["Hit", "SearchIndex", "Weights", "summary_of"]


@dataclass(frozen=True, slots=True)
class Weights:
    """How the index weighs what it knows (the defaults: tuned on bench/search, held-out tasks checked)."""

    # field -> (weight, length normalisation b)
    fields: Mapping[str, tuple[float, float]] = field(
        default_factory=lambda: {
            "action": (0.3, 0.0),
            "name": (0.3, 0.5),
            "title": (0.9, 1.0),
            "resource": (1.2, 1.0),
            "path": (0.6, 1.0),
            "tags": (0.35, 0.3),
            "topic": (0.4, 0.3),
            "description": (0.4, 0.3),
            "arguments": (0.1, 0.75),
            "details": (0.2, 0.3),
            "results": (0.3, 0.75),
        }
    )
    k1: float = 2.0
    intent: float = 0.8  # an operation of the method the request asks for: score x (1 + intent)
    length: float = 0.04  # per path segment beyond the first: score / (1 + length x segments)
    same_action: int = 2  # results of one action (method, resource) at their own score
    repeat: float = 0.6  # each result of an action beyond those: score x repeat, once more per result
    someone: float = 0.3  # a request naming a person, an operation on one person's things: score x (1 + someone)
    asker: float = 0.15  # a request of the asker's ("my", "I"), an operation on the asker's things: x (1 + asker)
    properties: float = 0.45  # a property a request asks of ("Ravi's office location"): + its rarity x properties
    properties_part: float = 0.5  # a property whose name holds the words asked ("client secret"): that x part
    inputs_read: float = 0.5  # a write's parameters and body fields, for a request that only reads: x inputs_read
    # A term rare among the operations' resources but common elsewhere ("doctor", in every operation's
    # arguments and one resource): where it names an operation's resource, its rarity as a resource x this.
    named_rarity: float = 0.4
    # Two words said in a row that an API runs together as one resource's name (Google's "accountstatuses",
    # "orgunits"): the joined word, at this share of the two words' weight.
    joined: float = 0.5
    # A thing named by its kind ("the Assets list"), an operation whose path names one of that kind by its id
    # (/sites/{id}/lists/{list-id}/columns): score x (1 + identified).
    identified: float = 0.1
    # A repository named by its slug ("acme/widgets"), an operation on one repository (a path parameter naming
    # it: /repos/{owner}/{repo}/...) before its organisation's and enterprise's copies: score x (1 + repository).
    repository: float = 0.4


# The fields of what an operation takes (its parameters and body), not of what it is.
_INPUTS = frozenset({"arguments", "details"})


@dataclass(frozen=True, slots=True)
class Hit:
    """One operation found, with its score."""

    entry: ToolEntry
    score: float


class SearchIndex:
    """The operations of one API, indexed for requests in people's words."""

    def __init__(
        self,
        entries: Sequence[ToolEntry],
        weights: Weights | None = None,
        analysed: Sequence[Mapping[str, Sequence[str]]] | None = None,
    ) -> None:
        self.entries = list(entries)
        self.weights = weights or Weights()
        docs = analysed if analysed is not None else analyse_api([entry_texts(entry) for entry in self.entries])
        fields = self.weights.fields
        self._properties = Properties(docs, self.weights.properties, self.weights.properties_part)
        average = {name: max(sum(len(d.get(name, ())) for d in docs) / max(len(docs), 1), 1.0) for name in fields}
        frequency: dict[str, int] = defaultdict(int)
        for doc in docs:
            for term in {t for name in fields for t in doc.get(name, ())}:
                frequency[term] += 1
        total = len(docs)
        named: dict[str, int] = defaultdict(int)  # how many operations' resources a term names
        for doc in docs:
            for term in set(doc.get("resource", ())):
                named[term] += 1
        idf = {term: _rarity(total, n) for term, n in frequency.items()}
        # A resource's term: the more of its rarity overall and its rarity among resources x named_rarity.
        as_named = {
            term: max(idf.get(term, 0.0), self.weights.named_rarity * _rarity(total, n)) for term, n in named.items()
        }
        methods = [entry["method"].upper() for entry in self.entries]
        # Paths without their OData suffixes: a list and its count or type cast are one action.
        paths = [[s for s in e["path"].split("/") if s] for e in self.entries]
        segments = [trimmed(method, s)[0] for method, s in zip(methods, paths, strict=True)]
        self._methods = [rpc_method(method, s)[0] for method, s in zip(methods, segments, strict=True)]
        self._postings: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
        k1, inputs_read = self.weights.k1, self.weights.inputs_read
        for number, doc in enumerate(docs):
            weighted: dict[str, float] = defaultdict(float)
            given: dict[str, float] = defaultdict(float)  # the terms of what a write takes
            writes = self._methods[number] != "GET"
            for name, (weight, b) in fields.items():
                found = doc.get(name, ())
                norm = (1 - b) + b * len(found) / average[name]
                into = given if writes and name in _INPUTS else weighted
                for term in found:
                    into[term] += weight / norm
            rarity = {term: as_named[term] for term in doc.get("resource", ())}
            for term, tf in weighted.items():
                if term not in given:
                    value = rarity.get(term, idf[term]) * tf / (k1 + tf)
                    self._postings[term].append((number, value, value))
            for term, taken in given.items():
                tf, read = weighted.get(term, 0.0) + taken, weighted.get(term, 0.0) + inputs_read * taken
                rare = rarity.get(term, idf[term])
                self._postings[term].append((number, rare * tf / (k1 + tf), rare * read / (k1 + read)))
        # An operation with a short path is the general one, before its variants.
        self._prior = [1 / (1 + self.weights.length * max(len(s) - 1, 0)) for s in segments]
        # An action: the method, the resource, and whether the path names one item of it (listing
        # pull requests and getting one are two actions; /me/x and /users/{id}/x are one, and so
        # are a list and its count or type cast).
        self._actions = [
            _action(method, s, bare_verb(given, s) is not None)
            for method, given, s in zip(self._methods, methods, segments, strict=True)
        ]
        # What the resource belongs to (a group's members, a chat's members); its terms are read only for
        # the results a search spreads, once per parent (analysing all 11,000 of Graph's at start: 0.37 s).
        self._parents = [_parent(s) for s in segments]
        self._parent_terms: dict[str, frozenset[str]] = {}
        self._personal = [_personal(s) for s in paths]
        # The operations on one repository (a parameter naming it: {repo}, {repository_id}); most APIs have none,
        # and then neither they nor the path words telling a repository's slug from a path ("user/keys") are kept.
        self._repository_scoped = frozenset(
            n for n, s in enumerate(paths) if any("repo" in x.lower() and PARAMETER.match(x) for x in s)
        )
        self._segments = (
            frozenset(x.lower() for s in paths for x in s if not PARAMETER.match(x))
            if self._repository_scoped
            else frozenset()
        )
        self._mine = [bool(s) and s[0].lower() in ASKERS for s in paths]
        self._identified = [_identified(s) for s in segments]
        # What the API's paths name ("which Planner plans": a product's name, not a person's), and for telling
        # names from products, what many of its operations speak of ("Intune", "Contoso": not people).
        self._things = frozenset(named)
        self._known = self._things | {term for term, held in self._postings.items() if len(held) >= _SPOKEN_OF}
        # The records a question about people or a numbered thing may be answered by (:mod:`.records`).
        self._records = Records(methods, paths)

    def search(self, request: str, *, toolset: str | None = None, limit: int = 10) -> list[Hit]:
        """The ``limit`` operations that best match ``request`` (within ``toolset``), best first."""
        scores: dict[int, float] = defaultdict(float)
        # Every term adds up: an operation that matches several of the words people use for one thing
        # ("who am I": authenticated, current, user) ranks above one that happens to match one of them.
        postings = self._postings
        # "what's my account status": the API's /accountstatuses, its words written together
        asked = as_owners(self._joined(request, query_terms(request)), owning_roles(request, self._things))
        wanted = intent(request)
        # A question is seldom answered by what a change takes: a write's parameters and body fields
        # (a backend service's, a volume claim's) count less for a request that only reads.
        which = 2 if wanted == READ else 1  # a posting: (operation, its value, its value for a read)
        for said, weight in asked.items():
            # "rescan" where the API only says "scan": doing it again is doing it.
            term = said[2:] if said not in postings and said.startswith("re") and said[2:] in postings else said
            for posting in postings.get(term, ()):
                scores[posting[0]] += weight * posting[which]
        for number, value in self._properties.scores(request, wanted).items():
            scores[number] += value
        boost, prior, methods = 1 + self.weights.intent, self._prior, self._methods
        if toolset:
            scores = {n: v for n, v in scores.items() if toolset in self.entries[n].get("toolsets", [])}
        someone = names_someone(request, self._known)
        asker = not someone and asks_of_self(request)
        kinds = {stem(kind) for kind in _NAMED_KIND.findall(request)}
        if kinds:
            identified, by_id = self._identified, 1 + self.weights.identified
            scores = {n: v * by_id if not kinds.isdisjoint(identified[n]) else v for n, v in scores.items()}
        if self._names_repository(request):  # "any open dependabot alerts on acme/api?": that repository's
            raised = 1 + self.weights.repository
            for number in self._repository_scoped.intersection(scores):
                scores[number] *= raised
        if someone:  # "what groups is Tom a member of": a user's groups, not a group's
            personal, raised = self._personal, 1 + self.weights.someone
            scores = {n: v * raised if personal[n] else v for n, v in scores.items()}
        elif asker:  # "mark my passport task done": the asker's to-do task, not a plan's
            mine, raised = self._mine, 1 + self.weights.asker
            scores = {n: v * raised if mine[n] else v for n, v in scores.items()}
        ranked = [
            (-(score * boost if wanted and methods[number] in wanted else score) * prior[number], number)
            for number, score in scores.items()
        ]
        # The spread lowers repeats of one action within the best few hundred: its ``limit`` come from them.
        ranked = heapq.nsmallest(max(limit * 30, 300), ranked)
        spread = self._spread(ranked, limit, asked)
        if wanted == READ and not toolset:
            spread = with_record(spread, self._records.asked(request, someone, asker), limit)
        return [Hit(self.entries[n], -s) for s, n in spread]

    def _names_repository(self, request: str) -> bool:
        """Whether ``request`` names a repository by its slug ("acme/widgets"; not a path of the API's, "user/keys")."""
        return bool(self._repository_scoped) and (
            any(
                not (owner.lower() in self._segments and name.lower() in self._segments)
                for owner, name in _SLUG.findall(request)
            )
            or _ONE_REPOSITORY.search(request) is not None
        )

    def _joined(self, request: str, asked: dict[str, float]) -> dict[str, float]:
        """``asked`` with two words said in a row that a resource runs together ("account status": accountstatuses)."""
        said = [word for word in words(request) if word.isalpha() and word not in STOPWORDS]
        joined = dict(asked)
        for first, second in itertools.pairwise(said):
            term = stem(first + second)
            if term in self._things and term not in joined and stem(first) in asked and stem(second) in asked:
                joined[term] = self.weights.joined * (asked[stem(first)] + asked[stem(second)]) / 2
        return joined

    def _spread(
        self, ranked: list[tuple[float, int]], limit: int, asked: Mapping[str, float]
    ) -> list[tuple[float, int]]:
        """The best ``limit``, each result of one action beyond ``same_action`` ranked lower by ``repeat``.

        The action of a parent the request names is one of its own: "add Bob to the Finance group"
        asks for a group's members, not one more copy of a chat's.
        """
        seen: dict[tuple[tuple[str, str, bool], bool], int] = defaultdict(int)
        spread: list[tuple[float, int]] = []
        for score, number in ranked:
            action = (self._actions[number], not self._terms_of_parent(number).isdisjoint(asked))
            seen[action] += 1
            spread.append((score * self.weights.repeat ** max(seen[action] - self.weights.same_action, 0), number))
        return heapq.nsmallest(limit, spread)

    def _terms_of_parent(self, number: int) -> frozenset[str]:
        parent = self._parents[number]
        found = self._parent_terms.get(parent)
        if found is None:
            found = self._parent_terms[parent] = frozenset(terms(parent))
        return found

    def names(self, hits: Sequence[Hit]) -> list[str]:
        """The tool names of ``hits``."""
        return [hit.entry["tool"]["name"] for hit in hits]


# A repository's slug, owner/name ("acme/widgets"); a path parameter naming one is {repo}, {repository_id}, ...
_SLUG = re.compile(r"(?<![\w/])([A-Za-z][\w.-]*)/([A-Za-z][\w.-]*)(?![\w/])")
# ... or by its name: "the api repo", "our website repository", "repo acme-web" (one, not "the org's repos")
_ONE_REPOSITORY = re.compile(
    r"\b(?:the|our|my|this|that)\s+[\w.-]+\s+repo(?:sitory)?\b(?!s)|\brepo(?:sitory)?\s+(?:called\s+|named\s+)?"
    r"(?!(?:is|was|has|and|or|to|for|in|on|of|with|settings?)\b)[\w.-]*[a-z0-9][\w.-]*\b",
    re.IGNORECASE,
)
# "the Assets list", "our Q3 Planning board": the kind after a thing's capitalised name.
_SPOKEN_OF = 15  # operations whose words hold a term, past which a capitalised one is the API's, not a person
_NAMED_KIND = re.compile(r"\b(?:[Tt]he|[Mm]y|[Oo]ur)\s+(?:[A-Z][\w&-]*\s+)+([a-z]+)\b")


def _identified(segments: list[str]) -> frozenset[str]:
    """The resources a path names one of, by the last term of each segment before a parameter."""
    found = set()
    for segment, after in itertools.pairwise(segments):
        if PARAMETER.match(after) is not None and not PARAMETER.match(segment):
            said = terms(segment)
            if said:
                found.add(said[-1])
    return frozenset(found)


def _personal(segments: list[str]) -> bool:
    """Whether a path goes through one person (a users, members or people segment and its parameter)."""
    return any(
        segment.lower() in PEOPLE and PARAMETER.match(after) is not None
        for segment, after in itertools.pairwise(segments)
    )


def _action(method: str, segments: list[str], verb_last: bool) -> tuple[str, str, bool]:
    named = [s for s in segments if not PARAMETER.match(s)]
    if len(named) > 1 and verb_last:  # Plaid's POST /accounts/get and /identity/get: two actions
        named = named[:-1]
    resource = named[-1] if named else ""
    if len(named) > 1 and resource == segments[-1] and ("." in resource or named_verb(resource)):
        # An action the path names acts on what comes before it: copying a drive item and copying a
        # mail folder (Graph's .../items/{id}/microsoft.graph.copy, .../mailFolders/{id}/...copy) are
        # two; cloning a team (.../teams/{id}/..., .../joinedTeams/{id}/...) is one, by the last word.
        thing = words(named[-2])
        resource = f"{stem(thing[-1]) if thing else named[-2]}/{resource}"
    return method, resource, bool(segments and PARAMETER.match(segments[-1]))


def _rarity(total: int, holding: int) -> float:
    """BM25's inverse document frequency of a term that ``holding`` of ``total`` operations hold."""
    return math.log(1 + (total - holding + 0.5) / (holding + 0.5))


def _parent(segments: list[str]) -> str:
    """The named segment before the resource: what it belongs to."""
    named = [s for s in segments if not PARAMETER.match(s)]
    return named[-2] if len(named) > 1 else ""


def summary_of(entry: ToolEntry) -> dict[str, Any]:
    """An operation as a search result shows it: name, method and path, one line of summary."""
    tool = entry["tool"]
    summary = tool.get("title") or str(tool.get("description", ""))[:150]
    return {"name": tool["name"], "operation": f"{entry['method']} {entry['path']}", "summary": summary}
