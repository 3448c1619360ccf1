"""What every feature uses: text safety (`safetext`), uploads and files (`files`, `zipcheck`, `xlsxread`), the
error types of the services (`errors`), the cache (`cache`), middleware, URL converters, the client address, the
words for the domain's codes (`labels`), the staff tables (`tables`) and the staff views' helpers (`staff_views`).
Nothing here imports a feature folder."""
