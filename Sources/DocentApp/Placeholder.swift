// DocentApp placeholder, replaced as the adapter is written.
