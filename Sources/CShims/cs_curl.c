#include "CShims.h"
