"""Models for the exporter's tests, written as one writes them with torch.nn."""

import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)


class FeedForward(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden)
        self.w2 = nn.Linear(hidden, dim)
        self.dropout = nn.Dropout()


class TransformerBlock(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.attention_norm = nn.LayerNorm(dim)
        self.attention = Attention(dim)
        self.ffn_norm = nn.LayerNorm(dim)
        self.feed_forward = FeedForward(dim, hidden)


class SmallLM(nn.Module):
    """Two blocks; the output projection shares the token embedding's weight."""

    def __init__(self, vocab_size=512, dim=64, hidden=256, n_layers=2, max_seq_len=128):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab_size, dim)
        self.pos_embeddings = nn.Embedding(max_seq_len, dim)
        self.layers = nn.ModuleList(TransformerBlock(dim, hidden) for _ in range(n_layers))
        self.norm = nn.LayerNorm(dim)
        self.output = nn.Linear(dim, vocab_size, bias=False)
        self.output.weight = self.tok_embeddings.weight


class HeadFirst(nn.Module):
    """The tied pair is met head first; one module holds a parameter twice and another is reachable
    three times; bf16 and a scalar."""

    def __init__(self):
        super().__init__()
        self.head = nn.Linear(8, 16, bias=False, dtype=torch.bfloat16)
        shared = nn.Linear(8, 8)
        self.body = nn.Sequential([shared, nn.Linear(8, 8), shared])
        self.alias = shared
        self.embed = nn.Embedding(16, 8, dtype=torch.bfloat16)
        self.embed.weight = self.head.weight
        self.head.weight_alias = self.head.weight  # one module, one parameter, two names
        self.scale = nn.Parameter(dtype=torch.float32)


def small_lm(**kwargs):
    return SmallLM(**kwargs)


def meta_only(**kwargs):
    """Fails unless built under torch.device("meta"), as --meta promises."""
    model = SmallLM(**kwargs)
    if model.tok_embeddings.weight.device != "meta":
        raise RuntimeError("expected parameters on the meta device")
    return model


def not_a_model():
    return 42
