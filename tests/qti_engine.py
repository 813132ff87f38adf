"""A small QTI 2.1 response-processing engine, enough to run what the QTI writer emits and the
standard match_correct and map_response templates, so tests can score packages as a platform does."""

from __future__ import annotations

from lxml import etree

NS = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
TEMPLATES = "http://www.imsglobal.org/question/qti_v2p1/rptemplates/"


def _local(element) -> str:
    return element.tag[len(NS):] if element.tag.startswith(NS) else element.tag


class Item:
    def __init__(self, root: etree._Element):
        self.root = root
        self.responses = {d.get("identifier"): d for d in root.iter(NS + "responseDeclaration")}
        self.outcomes = {d.get("identifier"): d for d in root.iter(NS + "outcomeDeclaration")}

    @property
    def response_id(self) -> str:
        """The identifier of the item's one response (RESPONSE, or TF_RESPONSE for true/false)."""
        (identifier,) = self.responses
        return identifier

    def _typed(self, base_type: str, text: str):
        if base_type == "float":
            return float(text)
        if base_type == "integer":
            return int(text)
        if base_type == "boolean":
            return text.strip() == "true"
        if base_type == "directedPair":
            return tuple(text.split())
        return text

    def _default(self, declaration):
        value = declaration.find(NS + "defaultValue")
        if value is None:
            return None
        values = [self._typed(declaration.get("baseType"), v.text) for v in value.findall(NS + "value")]
        return _container(declaration.get("cardinality"), values)

    def correct(self, identifier: str):
        declaration = self.responses[identifier]
        values = [self._typed(declaration.get("baseType"), v.text) for v in declaration.iterfind(f"{NS}correctResponse/{NS}value")]
        if declaration.get("cardinality") == "single":
            return values[0] if values else None
        return _container(declaration.get("cardinality"), values)

    def map_response(self, identifier: str, value):
        declaration = self.responses[identifier]
        mapping = declaration.find(NS + "mapping")
        entries = mapping.findall(NS + "mapEntry")
        base_type = declaration.get("baseType")

        def mapped(v):
            for entry in entries:
                key = self._typed(base_type, entry.get("mapKey"))
                sensitive = entry.get("caseSensitive", "true") == "true"
                if key == v or (not sensitive and isinstance(v, str) and key.lower() == v.lower()):
                    return float(entry.get("mappedValue"))
            return float(mapping.get("defaultValue", "0"))

        if value is None:
            total = 0.0
        elif declaration.get("cardinality") == "single":
            total = mapped(value)
        else:
            total = sum(mapped(v) for v in value)
        if mapping.get("lowerBound") is not None:
            total = max(total, float(mapping.get("lowerBound")))
        if mapping.get("upperBound") is not None:
            total = min(total, float(mapping.get("upperBound")))
        return total

    def run(self, responses: dict) -> dict:
        """Outcome values after response processing of one attempt."""
        self.values = {name: self._default(d) for name, d in self.outcomes.items()}
        self.values.update(responses)
        processing = self.root.find(NS + "responseProcessing")
        if processing is not None:
            template = processing.get("template")
            if template is not None:
                assert len(processing) == 0, "a template with rules as well"
                self._template(template)
            for rule in processing:
                self._rule(rule)
        return self.values

    def _template(self, uri: str) -> None:
        if uri == TEMPLATES + "match_correct":
            self.values["SCORE"] = 1.0 if self.values["RESPONSE"] == self.correct("RESPONSE") else 0.0
        elif uri == TEMPLATES + "map_response":
            response = self.values["RESPONSE"]
            self.values["SCORE"] = 0.0 if _is_null(response) else self.map_response("RESPONSE", response)
        else:
            raise AssertionError(f"unknown template {uri}")

    def _rule(self, rule) -> None:
        name = _local(rule)
        if name == "setOutcomeValue":
            self.values[rule.get("identifier")] = self._eval(rule[0])
        elif name == "responseCondition":
            for branch in rule:
                if _local(branch) == "responseElse" or self._eval(branch[0]) is True:
                    for inner in branch[0 if _local(branch) == "responseElse" else 1 :]:
                        self._rule(inner)
                    return
        else:
            raise AssertionError(f"unsupported rule {name}")

    def _eval(self, e):
        name = _local(e)
        args = lambda: [self._eval(c) for c in e]  # noqa: E731
        if name == "variable":
            return self.values.get(e.get("identifier"))
        if name == "correct":
            return self.correct(e.get("identifier"))
        if name == "baseValue":
            return self._typed(e.get("baseType"), e.text)
        if name == "mapResponse":
            return self.map_response(e.get("identifier"), self.values.get(e.get("identifier")))
        if name == "isNull":
            return _is_null(args()[0])
        if name == "multiple":
            items = set()
            for v in args():
                if isinstance(v, frozenset):
                    items |= v
                elif v is not None:
                    items.add(v)
            return frozenset(items) if items else None
        values = args()
        if any(v is None for v in values) and name not in ("and", "or"):
            return None
        if name == "match":
            return values[0] == values[1]
        if name == "index":  # 1-based; past the end is NULL
            n = int(e.get("n"))
            return values[0][n - 1] if 1 <= n <= len(values[0]) else None
        if name == "sum":
            return sum(values)
        if name == "product":
            result = 1
            for v in values:
                result *= v
            return result
        if name == "divide":
            return None if values[1] == 0 else values[0] / values[1]
        if name == "member":
            return values[0] in values[1]
        if name == "stringMatch":
            a, b = values
            return a == b if e.get("caseSensitive") == "true" else a.lower() == b.lower()
        if name == "equal":
            a, b = values
            if e.get("toleranceMode", "exact") == "exact":
                return a == b
            low, high = (float(t) for t in e.get("tolerance").split())
            return b - low <= a <= b + high
        if name == "gte":
            return values[0] >= values[1]
        if name == "lte":
            return values[0] <= values[1]
        if name == "gt":
            return values[0] > values[1]
        if name == "and":
            return all(v is True for v in values)
        if name == "or":
            return any(v is True for v in values)
        if name == "not":
            return not values[0]
        raise AssertionError(f"unsupported expression {name}")


def _container(cardinality: str, values: list):
    if cardinality == "single":
        return values[0]
    return tuple(values) if cardinality == "ordered" else frozenset(values)


def _is_null(value) -> bool:
    return value is None or value == "" or (isinstance(value, (frozenset, tuple)) and not value)
