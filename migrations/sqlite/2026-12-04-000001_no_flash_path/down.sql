ALTER TABLE sessions DROP COLUMN allow_no_flash;
