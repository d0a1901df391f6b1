# SPDX-License-Identifier: BSD-3-Clause
include $(sort $(wildcard $(BR2_EXTERNAL_VFIT_PATH)/package/*/*.mk))
