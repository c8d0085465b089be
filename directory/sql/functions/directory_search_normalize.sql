-- The one normalisation of names and search terms (docs/search.md). Folded (case,
-- accents, ñ -> n, ç -> c); l·l and l.l read as ll; a dotted acronym (I.E.S., S.A.) read
-- as one word; every other character that is not a letter, a digit or "|" a word break;
-- a legal form (S.A., S.L.U., S. Coop. and the rest, dotted or not) left out where a name
-- ends, unless it is the whole name; "&" and the words "e", "i" and "and" read as "y".
-- Every word comes out between single spaces, and so does "|", which separates the names
-- of one search document (directory_search_doc):
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
