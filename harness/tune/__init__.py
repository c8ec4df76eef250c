"""Description tuning: the seeded split of the cases, the candidates (a file, or the agent's proposals,
screened by structural's rules), scoring each in the real room with an early stop on train, selection on
validation with a correction for the number tried, and the final split graded once for the honest
estimate."""
