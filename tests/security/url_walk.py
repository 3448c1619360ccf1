"""Every URL pattern of the site's URLconf, found by walking its resolver (every include, however deep), and a
sample address for each, built from sample values of its arguments (issue 34.1). A pattern added tomorrow is
walked without anyone listing it; one whose arguments have no sample value fails the walk (``NoSample``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.resolvers import RoutePattern

ROUTE_ARG = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>\w+)>")


class NoSample(AssertionError):
    pass


@dataclass(frozen=True)
class Walked:
    name: str  # "namespace:name", or the pattern's text when it has no name
    route: str  # the whole pattern, includes' prefixes joined ("gestao/t/<slug:slug>/")
    callback: object


def _text(pattern) -> str:
    if isinstance(pattern, RoutePattern):
        return str(pattern)
    regex = pattern.regex.pattern
    return regex.removeprefix("^").removesuffix("$").removesuffix(r"\Z")


def walk(resolver: URLResolver | None = None, prefix: str = "", namespace: str = "") -> list[Walked]:
    resolver = resolver or get_resolver()
    out: list[Walked] = []
    for entry in resolver.url_patterns:
        route = prefix + _text(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = ":".join(filter(None, [namespace, entry.namespace or ""]))
            out.extend(walk(entry, route, inner))
        elif isinstance(entry, URLPattern):
            name = ":".join(filter(None, [namespace, entry.name])) if entry.name else route
            out.append(Walked(name=name, route=route, callback=entry.callback))
    return out


def _regex_groups(route: str, value) -> str:
    """``(?P<name>...)`` groups of a regular-expression route replaced by ``value(name)`` (nested parentheses
    included)."""
    out, i = [], 0
    while True:
        start = route.find("(?P<", i)
        if start < 0:
            out.append(route[i:])
            return "".join(out)
        out.append(route[i:start])
        name = route[start + 4 : route.index(">", start)]
        depth, j = 0, start
        while True:
            if route[j] == "\\":
                j += 2
                continue
            depth += {"(": 1, ")": -1}.get(route[j], 0)
            j += 1
            if depth == 0:
                break
        out.append(value(name))
        i = j


def sample_url(walked: Walked, samples: dict[str, object], overrides: dict[str, dict[str, object]]) -> str:
    """The pattern's address with sample values (``overrides[name]`` first, then ``samples`` by argument name);
    checked to resolve back to the same view."""

    def value(arg: str) -> str:
        for source in (overrides.get(walked.name, {}), samples):
            if arg in source:
                return str(source[arg])
        raise NoSample(f"{walked.name} ({walked.route}): no sample value for <{arg}>; add one to the samples")

    url = "/" + ROUTE_ARG.sub(lambda m: value(m.group("name")), _regex_groups(walked.route, value))
    if re.search(r"[\\\[\](){}*+|^$]", url):
        raise NoSample(f"{walked.name} ({walked.route}): a regular expression the walk cannot fill: {url}")
    match = resolve(url)
    if match.func is not walked.callback and getattr(match.func, "__wrapped__", None) is not walked.callback:
        raise NoSample(f"{walked.name}: the sample address {url} resolves to another view ({match.view_name})")
    return url
