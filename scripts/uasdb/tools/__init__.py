"""Tools for maintainers: benchmarks, the synthetic data they use, and the generated docs (field guide, rule table), and the data diff for pull requests."""
