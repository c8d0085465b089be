-- The one normalisation of names and search terms (docs/search.md): folded (ñ -> n,
-- ç -> c); l·l and l.l as ll; a dotted acronym (I.E.S.) one word; any other character but
-- a letter, a digit or "|" a word break; a legal form (S.A., S. Coop. ..., dotted or not)
-- dropped where a name ends, unless it is the whole name; "&", "e", "i", "and" as "y".
-- Each word, and each "|" between a document's names, between single spaces:
--   'Pérez & Gálvez Abogados, S.L.P.'  ->  ' perez y galvez abogados '
CREATE OR REPLACE FUNCTION directory_search_normalize(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN regexp_replace(
    regexp_replace(
      ' ' || btrim(regexp_replace(
        regexp_replace(
          regexp_replace(
            regexp_replace(replace(directory_fold(value), '&', ' y '), 'l[·.]l', 'll', 'g'),
            '(?<![a-z0-9])([a-z0-9])\.(?=[a-z0-9](\.|[^a-z0-9]|$))', '\1', 'g'),
          '\|', ' | ', 'g'),
        '[^a-z0-9|]+', ' ', 'g')) || ' ',
      '(?<=[a-z0-9]) (?:'
      || 's a u|s l u|s l l|s l p|s l n e|s a l|s a d|s a t|s c p|s c c l|s c l|s c a|s a|s l'
      || '|c b|s c|sau|slu|sll|slp|slne|sal|sad|sat|scp|sccl|scl|sca|sa|sl|cb|sc|aie|srl|scoop'
      || '|(?:s|sdad|sociedad) coop(?:erativa)?(?: de credito| and(?:aluza)?| galega| valenciana| v)?'
      || '|sociedad (?:anonima|limitada)(?: unipersonal| laboral| profesional| deportiva)?'
      || '|sociedad agraria de transformacion|coop v)'
      || '(?= (?:\||$))',
      '', 'g'),
    ' (?:e|i|and)(?= )', ' y', 'g');
