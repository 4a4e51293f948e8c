"""Ratings computed from stored games: incremental Elo and the joint
maximum-likelihood fit."""
