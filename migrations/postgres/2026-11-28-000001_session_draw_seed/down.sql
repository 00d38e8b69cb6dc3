ALTER TABLE sessions DROP COLUMN draw_seed;
