import json
import numpy as np
import pytest
from django.db import connection
from directory import embeddings, related
from directory.business_terms import BUSINESS_KINDS, business_words, _KINDS, _words
from directory.models import Company
from tests.directory.evaluation import related as rel, related_catalogue
from tests.directory.evaluation.measure import load_related_catalogue

pytestmark = pytest.mark.django_db
OTHERS = {plain: others for plain, others in BUSINESS_KINDS}

def kinds(text):
    words = _words(text); out=[]; start=0
    while start < len(words):
        for length in range(min(6, len(words)-start), 0, -1):
            p = _KINDS.get(tuple(words[start:start+length]))
            if p:
                if p not in out: out.append(p)
                start += length; break
        else: start += 1
    return out

def test_explore():
    load_related_catalogue()
    embeddings.company_embedding_refresh()
    group = {c.slug: c.group for c in related_catalogue.COMPANIES}
    rows = list(Company.objects.order_by("id").values_list("id", "slug", "embedding__vector"))
    slugs = [r[1] for r in rows]
    M = np.stack([np.frombuffer(bytes(r[2]), "<f4") for r in rows])
    variants = {}
    queries = list(rel.DEV) + [rel.Query(t, frozenset({g}), kind="issue") for t, g in [("hotel","hotel"),("car manufacturer","car-maker"),("univercidad","university"),("supermecado","supermarket"),("aseguradra","insurer")]]
    for q in queries:
        with connection.cursor() as c:
            c.execute("select directory_search_corrected(%s)", (q.text,)); corr = c.fetchone()[0]
        base = related.query_text(q.text, corr)
        ks = kinds(corr) + [k for k in kinds(q.text) if k not in kinds(corr)]
        others = " ".join(w for k in ks for w in OTHERS[k][:8])
        texts = {"base": base, "others": base + " " + others, "tmpl": f"empresa de {base}", "tmpl_en": f"{base}. Company: {base}"}
        for name, t in texts.items():
            v = embeddings.embed([t])[0]; s = M @ v; o = np.argsort(-s)[:30]
            variants.setdefault(name, []).append({"q": q.text, "kind": q.kind, "exp": sorted(q.expected), "acc": sorted(q.acceptable), "top": [(group[slugs[i]], float(s[i])) for i in o]})
    json.dump(variants, open("/tmp/variants.json", "w"))
