// A stand-in for the peer tier, written for this test: it ranks skills by how many whole words of the
// prompt their description holds, through the three functions the benchmark calls.
'use strict';
const fs = require('fs');
const path = require('path');
const ROOT = path.join(__dirname, '..');

function loadSkills() {
  const dir = path.join(ROOT, 'skills');
  return fs.readdirSync(dir).map((name) => {
    const text = fs.readFileSync(path.join(dir, name, 'SKILL.md'), 'utf8');
    return { name, description: (text.match(/^description:\s*(.+)$/m) || [])[1] || '' };
  });
}

function words(text) {
  return new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2));
}

function buildCorpus(skills) {
  return skills.map((s) => ({ name: s.name, words: words(s.description) }));
}

function rankSkills(prompt, corpus) {
  const asked = words(prompt);
  const scores = corpus.map((d) => ({ name: d.name, score: [...asked].filter((w) => d.words.has(w)).length }));
  return scores.sort((a, b) => b.score - a.score);
}

if (require.main === module) console.log(JSON.stringify(rankSkills(process.argv[2] || '', buildCorpus(loadSkills()))));
