-- Minimal fixtures for integration tests.
INSERT INTO users (id, email, name) VALUES
  (1, 'alice@fixtures.example', 'Alice'),
  (2, 'bob@fixtures.example', 'Bob')
ON CONFLICT DO NOTHING;
INSERT INTO projects (id, owner_id, title) VALUES (1, 1, 'Fixture project') ON CONFLICT DO NOTHING;
