-- Statistics for the catalog tables as imported before each import gathered them itself
-- (src/catalogs/catalogs.repository.ts): the grouped read of the ZIP catalog at start relies on
-- them, and the embedded database never gathers them by itself.
analyze catalog_vehicle;
analyze catalog_zip_settlement;
