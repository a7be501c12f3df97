"""Running hands: one hand, the driver that loops over many, games, statistics and benchmarks."""
