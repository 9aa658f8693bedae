"""Does int8 document embedding keep SciFact quality? nDCG@10, fp32 against int8.

    python -m bench.int8_quality

Embeds the 5,183 SciFact abstracts with the int8 graph (weights quantised per channel,
:mod:`engine.embedding.onnx_files`) and compares, on the test split, vector and hybrid nDCG@10
(hybrid = the product's weighted RRF of the vector list and the memory's BM25 list, gate
off) with the fp32 vectors already in the SciFact memory. Queries are embedded by fp32
(what the product does) and, for reference, by int8. Prints the int8 throughput too.
"""

from __future__ import annotations

import time

import numpy as np

from bench.metrics import ndcg_at_k
from bench.scifact import load_queries, open_memory
from bench.search_oracles import fuse
from engine.embedding.onnx_embedder import OnnxEmbedder
from engine.services.parts import parts_of

DEPTH = 40


def main() -> None:
    memory, id_map, _ = open_memory(fresh=False)
    ids, _, fp32_docs = parts_of(memory).store().all_vectors()
    entries = parts_of(memory).mirror.get_many(ids)
    texts = [entries[i].content for i in ids]
    int8 = OnnxEmbedder("int8")
    int8.embed_documents(texts[:8])
    started = time.perf_counter()
    int8_docs = int8.embed_documents(texts)
    seconds = time.perf_counter() - started
    print(f"int8: {len(texts)} abstracts in {seconds:.0f} s ({len(texts) / seconds:.1f}/s)")
    cosines = (int8_docs * fp32_docs).sum(axis=1)
    print(f"cosine int8 vs fp32 documents: mean {cosines.mean():.4f}, min {cosines.min():.4f}")

    queries, qrels = load_queries("test")
    fp32 = OnnxEmbedder()
    setups = {
        "fp32 docs, fp32 queries": (fp32_docs, fp32),
        "int8 docs, fp32 queries": (int8_docs, fp32),
        "int8 docs, int8 queries": (int8_docs, int8),
    }
    k, weight = memory.config.rrf_k, memory.config.keyword_weight
    print(f"{'setup':<26} {'vector':>8} {'hybrid':>8}")
    for name, (docs, embedder) in setups.items():
        vector_scores, hybrid_scores = [], []
        for qid, text in queries.items():
            scores = docs @ embedder.embed_query(text)
            top = np.argsort(-scores)[:DEPTH]
            vhits = [(entries[ids[i]], float(scores[i])) for i in top]
            ranked = [id_map[e.id] for e, _ in vhits]
            vector_scores.append(ndcg_at_k(ranked, qrels[qid], 10))
            khits = parts_of(memory).searcher.keyword.search(text, DEPTH)
            fused = fuse(vhits, khits, k, weight)
            hybrid_scores.append(ndcg_at_k([id_map[r.entry.id] for r in fused], qrels[qid], 10))
        print(f"{name:<26} {np.mean(vector_scores):>8.4f} {np.mean(hybrid_scores):>8.4f}")
    memory.close()


if __name__ == "__main__":
    main()
