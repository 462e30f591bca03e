-- Tableau column widths of accented, CJK, fullwidth, emoji and combining characters (streaming and batch).
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT 'héllo 日本' AS s, '😀x' AS e, 'ｆｕｌｌ' AS f, 'a' || U&'\0301' AS c, '日本語の長い文字列はここで切り詰められるべきです' AS long_one;
SET 'execution.runtime-mode' = 'batch';
SELECT 'héllo 日本' AS s, '😀x' AS e, 'ｆｕｌｌ' AS f, 'a' || U&'\0301' AS c, '日本語の長い文字列はここで切り詰められるべきです' AS long_one;
